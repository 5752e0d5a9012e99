/**
 * What this process holds open under a session (the live-count streams of GET
 * /api/changeRequest/events) hears here, at once, that the session ended (logout) or that the
 * account's access changed (its own password change revoked its tokens): each watcher then ends or
 * checks its session again. One registry per app. Changes made in another process, and the approved
 * user and role edits, reach the streams through their own re-checks (at every announced change and
 * every heartbeat), so this only makes the same-process case immediate.
 */

export interface SessionWatcher {
  readonly userId: number;
  readonly sessionId: string;
  /** The session ended: stop at once. */
  sessionEnded(): void;
  /** The account's access may have changed: check the session and permissions again. */
  recheck(): void;
}

/** What the calls that end a session or change an account's access tell (AuthServices.sessionSignals). */
export interface SessionSignals {
  sessionEnded(sessionId: string): void;
  accessChanged(userId: number): void;
}

export class SessionWatchers implements SessionSignals {
  private readonly watchers = new Set<SessionWatcher>();

  /** Adds a watcher; returns the function that removes it. */
  watch(watcher: SessionWatcher): () => void {
    this.watchers.add(watcher);
    return () => {
      this.watchers.delete(watcher);
    };
  }

  sessionEnded(sessionId: string): void {
    for (const w of [...this.watchers]) if (w.sessionId === sessionId) w.sessionEnded();
  }

  accessChanged(userId: number): void {
    for (const w of [...this.watchers]) if (w.userId === userId) w.recheck();
  }
}
