// Hands a same-origin address to the browser as a download (the web host's one-time export address):
// a link with `download`, clicked once and removed. The page never reads the file's bytes.
export function startBrowserDownload(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
