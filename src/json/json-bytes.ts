/**
 * The bytes of JSON's structure, for the scanners that follow strings and brackets
 * over raw bytes without parsing (src/io/input/json-lines.ts).
 * Every one is below 0x80, so none falls inside a multi-byte UTF-8 character.
 */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const NEWLINE = 0x0a;
