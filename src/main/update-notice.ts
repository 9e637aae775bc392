// Tells the buyer why the app does not update itself. A refused update (its signature did not match)
// is told every time; the standing reasons (an AppImage, an unsigned build) once per app version, so
// the buyer is not asked to dismiss the same words at every start.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Labels } from './app-locale';
import type { UpdateRefusal } from './updater';

export interface UpdateNoticeOptions {
  labels: Labels;
  /** Remembers which version's standing notice was shown (in the data folder). */
  markerFile: string;
  appVersion: string;
  show: (message: { title: string; detail: string; button: string }) => void;
}

export function createUpdateNotice(options: UpdateNoticeOptions): (refusal: UpdateRefusal) => void {
  const { labels } = options;
  const words: Record<UpdateRefusal, { title: string; detail: string }> = {
    appimage: { title: labels.updatesOffTitle, detail: labels.updatesOffAppImage },
    'unsigned-build': { title: labels.updatesOffTitle, detail: labels.updatesOffUnsigned },
    'signature-mismatch': { title: labels.updateRefusedTitle, detail: labels.updateSignatureMismatch },
  };
  return (refusal) => {
    if (refusal !== 'signature-mismatch') {
      const marker = `${refusal} ${options.appVersion}`;
      if (readMarker(options.markerFile) === marker) return;
      writeFileSync(options.markerFile, marker, { mode: 0o600 });
    }
    options.show({ ...words[refusal], button: labels.ok });
  };
}

function readMarker(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
