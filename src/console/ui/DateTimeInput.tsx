/**
 * A date-time text field for the filter bars, shown as 'yyyy-MM-dd HH:mm:ss' (en-CA). The browser's
 * datetime-local field rewrote its value on every keystroke (typing 11 20 2026 gave year 0006, and
 * Search sent year 0026), so this one keeps exactly what the person types or pastes, and hands a value
 * to `onChange` only once the text is a complete, real date-time; the filter bar's rules (not after
 * now, To follows From) apply to that value only. An impossible date (2026-02-30) says so and changes
 * nothing. When the value changes from outside (a rule moved it, Clear), the text shows the new value.
 * With `latest` (pickers cannot go into the future), a later time is taken as `latest`: the field says
 * so at once and shows that value when it loses the focus, so it always shows what Search sends.
 */
import { useEffect, useRef, useState } from 'react';
import { displayOf, readDateTimeText } from './dateTimeText';
import { inputClass } from './primitives';
import { capAt } from '../../domain/dates';

export function DateTimeInput({ id, value, onChange, latest }: { id: string; value: string; onChange: (value: string) => void; latest?: () => string }) {
  const [text, setText] = useState(displayOf(value));
  const [message, setMessage] = useState<string | null>(null);
  /** The time a later one typed was taken as (shown under the field until the next change). */
  const [capped, setCapped] = useState<string | null>(null);
  const emitted = useRef(value);

  useEffect(() => {
    if (value !== emitted.current) {
      emitted.current = value;
      setText(displayOf(value));
      setMessage(null);
      setCapped(null);
    }
  }, [value]);

  function take(next: string, final: boolean) {
    setText(next);
    const read = readDateTimeText(next);
    setCapped(null);
    if (read.state === 'complete') {
      setMessage(null);
      const taken = latest ? capAt(read.value, latest()) : read.value;
      if (taken !== read.value) setCapped(taken);
      emitted.current = taken;
      onChange(taken);
    } else if (read.state === 'invalid') setMessage(read.message);
    else setMessage(final ? 'Enter a date and time as yyyy-MM-dd HH:mm:ss' : null);
  }

  const errorId = `${id}-error`;
  const noteId = `${id}-note`;
  return (
    <div className="flex flex-col gap-1">
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        placeholder="yyyy-MM-dd HH:mm:ss"
        className={`${inputClass} w-48 tabular-nums`}
        value={text}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? errorId : capped ? noteId : undefined}
        onChange={(e) => take(e.target.value, false)}
        onBlur={(e) => {
          take(e.target.value, true);
          // the rules may have moved the value (capped at now): show what will be sent
          if (readDateTimeText(e.target.value).state === 'complete') setText(displayOf(emitted.current));
        }}
      />
      {capped && !message && (
        <p id={noteId} role="status" className="max-w-48 text-xs text-ink-soft">
          Taken as {displayOf(capped)}, the latest allowed
        </p>
      )}
      {message && (
        <p id={errorId} role="alert" className="max-w-48 text-xs text-red-700 dark:text-red-400">
          {message}
        </p>
      )}
    </div>
  );
}
