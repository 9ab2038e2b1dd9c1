/**
 * A human seat's token on its page. The link carries it in the fragment (`#token=…`), which a
 * browser never sends to a server; the page moves it into sessionStorage, keyed by game and seat,
 * and takes it off the address bar, so a reload or the link opened again in this tab resumes the
 * seat, and the token is in no query string, no history entry and no log line.
 */
const keyOf = (gameId: string, playerId: string): string => `tiltyard.seat.${gameId}.${playerId}`;

/** The seat's token: from the fragment (stored for the tab), else the one stored earlier; '' when neither. */
export function seatToken(gameId: string, playerId: string): string {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token')?.trim() ?? '';
  if (fromHash) {
    try {
      sessionStorage.setItem(keyOf(gameId, playerId), fromHash);
    } catch {
      // Storage off (private mode): the token lives in this page only, and a reload needs the link again.
    }
    history.replaceState(history.state, '', window.location.pathname + window.location.search);
    return fromHash;
  }
  try {
    return sessionStorage.getItem(keyOf(gameId, playerId)) ?? '';
  } catch {
    return '';
  }
}
