import type { Config } from 'tailwindcss';

const token = (name: string) => `rgb(var(--${name}) / <alpha-value>)`;

export default {
  content: ['./index.html', './src/**/*.{ts,tsx}', './screens/**/*.ts'],
  theme: {
    extend: {
      colors: {
        canvas: token('canvas'),
        surface: token('surface'),
        muted: token('muted'),
        line: token('line'),
        ink: { DEFAULT: token('ink'), soft: token('ink-soft') },
        accent: { DEFAULT: token('accent'), strong: token('accent-strong'), fill: token('accent-fill'), 'fill-strong': token('accent-fill-strong') },
      },
    },
  },
} satisfies Config;
