/** Reset Password (spec 000 §2, §5, §8): the signed-in user changes their own password. */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useNavigate } from '@tanstack/react-router';
import { userResetPassword } from '../api/users';
import { NEW_PASSWORD_UNCHANGED } from '../api/auth';
import { callApi } from '../console/request';
import { saveToken, useMustChangePassword, useSession } from '../console/session';
import { toast } from '../console/ui/toast';
import { Button, FieldRow, inputClass } from '../console/ui/primitives';
import { Logo } from '../console/shell';
import { limits, messages, patterns } from '../domain/validation';
import { homeRouteFor } from '../domain/access';

export const resetPasswordSchema = z
  .object({
    old_password: z.string().min(1, messages.oldPassword).max(limits.resetPassword, messages.oldPassword),
    new_password: z.string().min(1, messages.resetPassword).max(limits.resetPassword, messages.resetPassword).regex(patterns.password, messages.resetPassword),
    confirm_password: z.string().min(1, messages.confirmPassword).max(limits.resetPassword, messages.confirmPassword),
  })
  .refine((v) => !v.confirm_password || v.new_password === v.confirm_password, { path: ['confirm_password'], message: messages.passwordsMismatch })
  .refine((v) => !v.new_password || v.new_password !== v.old_password, { path: ['new_password'], message: NEW_PASSWORD_UNCHANGED });
type Values = z.infer<typeof resetPasswordSchema>;

export default function ResetPassword() {
  const user = useSession();
  const forced = useMustChangePassword();
  const navigate = useNavigate();
  const form = useForm<Values>({ mode: 'onBlur', resolver: zodResolver(resetPasswordSchema), defaultValues: { old_password: '', new_password: '', confirm_password: '' } });
  const errors = form.formState.errors;

  async function submit(v: Values) {
    const res = await callApi(userResetPassword, { username: user?.username ?? '', old_password: v.old_password, new_password: v.new_password });
    if (res.ok) {
      const fresh = (res.data as { token?: string }).token;
      if (fresh) saveToken(fresh);
      toast('success', 'Password reset successful');
      setTimeout(() => void navigate({ to: homeRouteFor(user?.permissions ?? []) }), 1000);
    } else if (res.statusCode === 406) {
      toast('warning', 'Old password is invalid!');
    } else {
      toast('warning', 'Reset password failed!');
    }
  }

  return (
    <div className="grid place-items-center py-8">
      <form onSubmit={form.handleSubmit(submit)} noValidate className="flex w-full max-w-md flex-col gap-4 rounded-lg border border-line bg-surface p-8">
        <Logo />
        <h1 className="text-lg font-semibold">Reset Password</h1>
        {forced && (
          <p role="note" className="rounded border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
            Your password was set by someone else. Choose a new password to continue.
          </p>
        )}
        <FieldRow label="Old Password" htmlFor="old_password" error={errors.old_password?.message} required>
          <input id="old_password" type="password" maxLength={limits.resetPassword} className={inputClass} autoComplete="current-password" {...form.register('old_password')} />
        </FieldRow>
        <FieldRow label="New Password" htmlFor="new_password" error={errors.new_password?.message} required>
          <input id="new_password" type="password" maxLength={limits.resetPassword} className={inputClass} autoComplete="new-password" {...form.register('new_password')} />
        </FieldRow>
        <FieldRow label="Confirm Password" htmlFor="confirm_password" error={errors.confirm_password?.message} required>
          <input id="confirm_password" type="password" maxLength={limits.resetPassword} className={inputClass} autoComplete="new-password" {...form.register('confirm_password')} />
        </FieldRow>
        <Button type="submit" variant="primary" disabled={form.formState.isSubmitting}>
          Reset Password
        </Button>
      </form>
    </div>
  );
}
