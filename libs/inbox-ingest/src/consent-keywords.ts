import { foldText } from '@cmsg/contact-filter';

/** CONTRACT 10.2: the default keywords; each opts in or out of both categories. */
export const DEFAULT_OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'BAJA', 'ALTO', 'PARAR', 'SAIR', 'DESCADASTRAR'];
export const DEFAULT_OPT_IN_KEYWORDS = ['START', 'UNSTOP', 'ALTA', 'VOLTAR'];

/** A business's own lists (seed file `consent_keywords`): each replaces its default when given. */
export interface ConsentKeywordLists {
  opt_out?: readonly string[] | null;
  opt_in?: readonly string[] | null;
}

/**
 * What an inbound text says about consent: a text that is exactly one keyword once trimmed and
 * case- and accent-folded ("  stop ", "Baja", "PARÁR"); anything else, a sentence holding a keyword
 * included, says nothing. An opt-out keyword wins over an opt-in one listed the same.
 */
export function consentKeywordOf(text: string, lists: ConsentKeywordLists | null | undefined): 'opted_out' | 'opted_in' | null {
  const folded = foldText(text);
  if (folded === '' || /\s/.test(folded)) return null;
  const optOut = (lists?.opt_out ?? DEFAULT_OPT_OUT_KEYWORDS).map(foldText);
  if (optOut.includes(folded)) return 'opted_out';
  const optIn = (lists?.opt_in ?? DEFAULT_OPT_IN_KEYWORDS).map(foldText);
  return optIn.includes(folded) ? 'opted_in' : null;
}
