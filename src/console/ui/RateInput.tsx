/** The rate input (spec 002 §5): entered from the right, comma grouping, Backspace resets to zero. */
import type { InputHTMLAttributes } from 'react';
import { formatRate, parseRateText, RATE_AFTER_BACKSPACE, typeRateDigit, type RateRules } from './rate';
import { inputClass } from './primitives';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  value: number;
  onValue: (value: number) => void;
  rules: RateRules;
};

export function RateInput({ value, onValue, rules, className = '', readOnly, disabled, ...rest }: Props) {
  const locked = readOnly || disabled;
  return (
    <input
      {...rest}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      readOnly={readOnly}
      disabled={disabled}
      className={`${inputClass} text-right tabular-nums ${className}`}
      value={formatRate(value, rules.decimals)}
      onKeyDown={(e) => {
        if (locked || e.ctrlKey || e.metaKey || e.altKey) return;
        if (/^[0-9]$/.test(e.key)) {
          e.preventDefault();
          onValue(typeRateDigit(value, Number(e.key), rules));
        } else if (e.key === 'Backspace' || e.key === 'Delete') {
          e.preventDefault();
          onValue(RATE_AFTER_BACKSPACE);
        } else if (e.key.length === 1) {
          e.preventDefault(); // digits only
        }
      }}
      onPaste={(e) => {
        if (locked) return;
        e.preventDefault();
        const v = parseRateText(e.clipboardData.getData('text'), rules);
        if (v !== null) onValue(v);
      }}
      onChange={(e) => {
        // changes that are not keystrokes (autofill, assistive tools)
        if (locked) return;
        const v = parseRateText(e.target.value, rules);
        onValue(v ?? RATE_AFTER_BACKSPACE);
      }}
    />
  );
}
