// Browser mode's per-run token: read once from the address the user opened
// (`/?token=…`), kept in sessionStorage for reloads of this tab, and removed from the
// address bar so it does not linger in history or get copied along with the URL.
const KEY = 'mekong.token';

export function takeSessionToken(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(KEY, fromUrl);
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem(KEY);
}
