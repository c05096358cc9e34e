/**
 * One name per model across the aliases an agent records. Anthropic's API answers an
 * alias ("claude-sonnet-4-5") with the dated snapshot it points to
 * ("claude-sonnet-4-5-20250929") in some files and not in others, so one model showed as
 * two lines in a total. Only that form, an 8-digit date at the end, is folded: a date
 * written with dashes ("gpt-4o-2024-05-13") names a snapshot priced apart from its alias.
 */
const DATED = /^(.+?)[-@](20\d{6})$/;

/** The name a model's cost is grouped under: its id without a trailing YYYYMMDD snapshot date. */
export function modelGroupName(model: string): string {
  const m = DATED.exec(model);
  return m ? m[1] : model;
}
