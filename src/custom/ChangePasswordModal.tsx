/**
 * The Change Password modal of the Users list (spec 000 §2, §5, §8): password, Generate, Copy, Close,
 * Change. The reset of a privileged account waits for a second person's approval: the
 * server then answers with a change request id, and the list reloads to show the record locked.
 */
import { useState } from 'react';
import { userChangePassword } from '../api/users';
import { callApi } from '../console/request';
import type { RowModalProps } from '../console/registries';
import { toast } from '../console/ui/toast';
import { Button, FieldRow, Modal, inputClass } from '../console/ui/primitives';
import { generatePassword } from '../domain/password';
import { isValidPassword, messages } from '../domain/validation';

export default function ChangePasswordModal({ row, close, reload }: RowModalProps) {
  const username = String(row.username ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function change() {
    if (!isValidPassword(password)) {
      setError(messages.password);
      return;
    }
    setBusy(true);
    const res = await callApi(userChangePassword, { username, password });
    setBusy(false);
    if (res.ok && res.data.changeRequestId !== undefined) {
      toast('success', `Password reset for user "${username}" sent for approval`);
      close();
      reload();
      return;
    }
    if (res.ok) toast('success', `Password changed for user "${username}" successfully`);
    else toast('warning', 'Password change failed!');
    close();
  }

  return (
    <Modal
      open
      onOpenChange={(o) => !o && close()}
      title={`Change Password — ${username}`}
      footer={
        <>
          <Button onClick={close}>Close</Button>
          <Button variant="primary" onClick={() => void change()} disabled={busy}>
            Change
          </Button>
        </>
      }
    >
      <FieldRow label="Password" htmlFor="change-password" error={error ?? undefined} required>
        <div className="flex gap-2">
          <input
            id="change-password"
            className={`${inputClass} font-mono`}
            value={password}
            autoComplete="new-password"
            onChange={(e) => setPassword(e.target.value)}
            onBlur={() => setError(password && !isValidPassword(password) ? messages.password : null)}
          />
          <Button
            onClick={() => {
              setPassword(generatePassword());
              setError(null);
            }}
          >
            Generate
          </Button>
          <Button
            onClick={() => {
              void navigator.clipboard?.writeText(password);
              toast('success', 'Copied to Clipboard');
            }}
          >
            Copy
          </Button>
        </div>
      </FieldRow>
    </Modal>
  );
}
