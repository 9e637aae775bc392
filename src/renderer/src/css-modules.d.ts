// Styles are side-effect imports bundled by Vite; TypeScript 7 checks that every import resolves.
declare module '*.css';
