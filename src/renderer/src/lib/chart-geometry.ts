// The price history chart's geometry (no chart library): points scaled into a box, as a step line
// since a price holds until the next change.
export interface ChartPoint {
  readonly x: number;
  readonly y: number;
}

export interface ChartGeometry {
  readonly path: string;
  readonly points: readonly ChartPoint[];
  readonly minValue: number;
  readonly maxValue: number;
}

export function stepChart(
  samples: readonly { readonly at: number; readonly value: number }[],
  width: number,
  height: number,
  padding: number,
  nowSeconds: number,
): ChartGeometry | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a.at - b.at);
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  if (first === undefined || last === undefined) return null;
  const minAt = first.at;
  const maxAt = Math.max(nowSeconds, last.at, minAt + 1);
  const values = sorted.map((sample) => sample.value);
  const minValue = Math.min(...values);
  const maxValue = Math.max(...values);
  const spread = maxValue - minValue || Math.max(1, Math.abs(maxValue) * 0.1);
  const low = maxValue === minValue ? minValue - spread / 2 : minValue;
  const x = (at: number): number => padding + ((at - minAt) / (maxAt - minAt)) * (width - 2 * padding);
  const y = (value: number): number => height - padding - ((value - low) / spread) * (height - 2 * padding);
  const points = sorted.map((sample) => ({ x: x(sample.at), y: y(sample.value) }));
  let path = '';
  points.forEach((point, index) => {
    // A price holds until the next change: across, then up or down.
    path += index === 0 ? `M${point.x.toFixed(1)},${point.y.toFixed(1)}` : ` H${point.x.toFixed(1)} V${point.y.toFixed(1)}`;
  });
  const end = points[points.length - 1];
  if (end !== undefined) path += ` H${x(maxAt).toFixed(1)}`;
  return { path, points, minValue, maxValue };
}
