// electron-vite's `?asset` imports (resources copied next to the build, path returned).
/// <reference types="electron-vite/node" />
