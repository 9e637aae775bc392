// Reads the quick-tunnel URL out of cloudflared's log. It prints a box on stderr such as
//   2024-05-01T10:00:00Z INF |  https://word-word-word-word.trycloudflare.com   |
// while error lines may name its API host (https://api.trycloudflare.com/tunnel), which is not ours.
const QUICK_TUNNEL_URL = /https:\/\/([a-z0-9-]+)\.trycloudflare\.com(?![a-z0-9.-])(\/?)(?=$|[\s|"'])/gi;

export function findQuickTunnelUrl(line: string): string | null {
  for (const match of line.matchAll(QUICK_TUNNEL_URL)) {
    const label = (match[1] ?? '').toLowerCase();
    if (label === 'api' || label === '') continue;
    return `https://${label}.trycloudflare.com`;
  }
  return null;
}
