// Browser mode's per-run token: read once from the address the user opened
// (`/?token=…`), kept in sessionStorage for reloads of this tab, and removed from the
// address bar so it does not linger in history or get copied along with the URL.
// On a team server, the logged-in account's name, role and CSRF token, kept the same way
// (the session itself is in an HttpOnly cookie the page never sees).
const KEY = 'mekong.token';
const TEAM_KEY = 'mekong.team';

export interface TeamAccount {
  name: string;
  role: 'annotator' | 'adjudicator' | 'manager';
  csrf: string;
}

export function teamAccount(): TeamAccount | null {
  const saved = sessionStorage.getItem(TEAM_KEY);
  return saved ? (JSON.parse(saved) as TeamAccount) : null;
}

/** Remembers the account this tab logged in as, or forgets it (null: logged out or expired). */
export function setTeamAccount(account: TeamAccount | null): void {
  if (account) sessionStorage.setItem(TEAM_KEY, JSON.stringify(account));
  else sessionStorage.removeItem(TEAM_KEY);
}

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
