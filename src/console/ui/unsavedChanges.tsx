/**
 * The unsaved-changes guard of forms: while a form is dirty, leaving it inside the console (a menu link,
 * Back) asks first, and closing or reloading the tab asks through the browser's own prompt
 * (beforeunload). Saving and Cancel are deliberate, so they call `leave()` first and are not asked.
 */
import { useRef, type ReactNode } from 'react';
import { useBlocker } from '@tanstack/react-router';
import { ConfirmDialog } from './primitives';

export function useUnsavedChangesGuard(dirty: boolean): { leave: () => void; dialog: ReactNode } {
  const leaving = useRef(false);
  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;
  const shouldBlock = () => dirtyNow.current && !leaving.current;
  const blocker = useBlocker({ shouldBlockFn: shouldBlock, enableBeforeUnload: shouldBlock, withResolver: true });
  const dialog =
    blocker.status === 'blocked' ? (
      <ConfirmDialog
        open
        title="Unsaved changes"
        message="This form has changes that are not saved. Leave it and lose them?"
        confirmLabel="Leave"
        onConfirm={() => blocker.proceed()}
        onCancel={() => blocker.reset()}
      />
    ) : null;
  return {
    leave: () => {
      leaving.current = true;
    },
    dialog,
  };
}
