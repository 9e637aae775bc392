// Finds an executable the way a shell would (PATH, and PATHEXT on Windows), so that the cloudflared
// tunnel is offered only when the program is really installed.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    // Windows has no execute bit; the extension decides there.
    if (process.platform !== 'win32') await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The full path of `name` on the PATH of `env`, or of `name` itself when it is a path; null when absent. */
export async function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const extensions = process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter((ext) => ext !== '')] : [''];
  if (isAbsolute(name) || name.includes('/') || name.includes('\\')) {
    for (const ext of extensions) if (await isExecutableFile(name + ext)) return name + ext;
    return null;
  }
  const directories = (env.PATH ?? env.Path ?? '').split(delimiter).filter((dir) => dir !== '');
  for (const directory of directories) {
    for (const ext of extensions) {
      const candidate = join(directory, name + ext);
      if (await isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}
