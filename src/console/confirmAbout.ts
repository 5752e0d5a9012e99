/**
 * What a confirmation adds by its `about` (src/definitions/definitions.ts ConfirmAbout): the summary
 * beneath the message and the confirm button's verb. Imported by the row actions only, so the texts
 * load with the lists and the row drawer, not on the first load.
 */
import type { ConfirmAbout, ConfirmSummary } from '../definitions/definitions';
import { moneyActionSummary, moneyActionVerb, type MoneyActionRow } from '../domain/moneyActionSummary';

export function confirmAboutOf(about: ConfirmAbout, row: unknown): { readonly summary: ConfirmSummary; readonly verb: string } {
  switch (about.kind) {
    case 'moneyAction':
      // the definition's row type has the fields (warningAction in screens/transactionFamily.ts asks for them)
      return { summary: moneyActionSummary(about.action, row as MoneyActionRow), verb: moneyActionVerb(about.action, row as MoneyActionRow) };
  }
}
