/**
 * Why a value read where an id belongs is no id, in words a spreadsheet user can
 * act on. Excel shows a long number column in exponent notation (`1.23E+15`) and
 * saves it so: the digits past the first few are gone, so the id cannot be
 * recovered from the file, only from the sheet (formatted as text, saved again).
 */

/** A number in exponent notation, as Excel writes it (`1.23E+15`, European `1,23E+15`). */
const EXPONENT = /^[+-]?\d+(?:[.,]\d+)?[eE][+-]?\d+$/;

/** Whether `text` is a number written in exponent notation. */
export function isExponentNotation(text: string): boolean {
  return EXPONENT.test(text.trim());
}

/** Why `text` (a cell or a line where an id belongs) is not an id. */
export function notAnIdReason(text: string): string {
  if (text.trim() === '') return 'an empty line where an id belongs';
  if (isExponentNotation(text))
    return `'${text.trim()}' is not an id: a spreadsheet wrote it in exponent notation, which loses its last digits (format the column as text, or as a number with no decimals, and save again)`;
  return `'${text}' is not an id (a positive integer)`;
}
