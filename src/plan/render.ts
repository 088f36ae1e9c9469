/**
 * A plan for a person: one line per record that would change (terraform's
 * `+ ~ -` marks), each changed field old → new, and a one-line summary. Long
 * plans show the first entries of each kind and say how many more there are
 * (`-o json` or `--plan-out` keep them all).
 */
import { terminalSafe } from '../contract/terminal-text.js';
import type { Plan, PlanAction, PlanEntry } from './types.js';
import { jsonText } from '../json/json-text.js';

/** Entries of one kind shown before "… and N more". */
const SHOWN_PER_ACTION = 50;

const MARKS: Record<PlanAction, string> = {
  create: '+',
  update: '~',
  unchanged: '=',
  delete: '-',
  remove: '-',
  decommission: '-',
  cancel: '-',
  refused: '!',
  unreadable: 'x',
  repeat: '=',
  irreversible: '?',
};

/** ANSI colours by mark, when colour is on. */
const COLOURS: Partial<Record<string, string>> = { '+': '32', '~': '33', '-': '31', '!': '35', x: '35', '?': '35' };

/** Order and wording of the summary. */
const SUMMARY: ReadonlyArray<[PlanAction, string]> = [
  ['create', 'to create'],
  ['update', 'to update'],
  ['delete', 'to delete'],
  ['remove', 'to remove'],
  ['decommission', 'to decommission'],
  ['cancel', 'to cancel'],
  ['unchanged', 'unchanged (not sent)'],
  ['refused', 'would be refused'],
  ['unreadable', 'unreadable (not sent)'],
  ['repeat', 'repeated rows (sent once)'],
  ['irreversible', 'cannot be undone'],
];

const grouped = new Intl.NumberFormat('en-US');

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = (jsonText(value) as string | undefined) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function headline(entry: PlanEntry): string {
  const where = entry.id !== undefined ? ` ${entry.id}` : entry.line !== undefined ? ` (line ${entry.line})` : '';
  const reason = entry.reason ? `: ${entry.reason}` : '';
  const created = entry.action === 'create' && entry.record ? `  ${show(entry.record)}` : '';
  const raw = entry.raw !== undefined ? `  ${show(entry.raw)}` : '';
  return `${entry.action}${where}${reason}${created}${raw}`;
}

/** The one-line summary: "Plan: 12 to create, 3 to update, 95 unchanged (not sent)." */
export function planSummary(plan: Pick<Plan, 'counts'>): string {
  const parts = SUMMARY.filter(([action]) => (plan.counts[action] ?? 0) > 0).map(([action, words]) => `${grouped.format(plan.counts[action] ?? 0)} ${words}`);
  return `Plan: ${parts.length > 0 ? parts.join(', ') : 'nothing to do'}.`;
}

type Paint = (mark: string, text: string) => string;

/** An entry's lines: its headline, then its changed fields and warnings. */
function linesOf(entry: PlanEntry, paint: Paint): string[] {
  const mark = MARKS[entry.action];
  const lines = [paint(mark, `  ${mark} ${headline(entry)}`)];
  for (const change of entry.changes ?? []) lines.push(paint(mark, `      ${change.field}: ${show(change.old)} → ${show(change.new)}`));
  for (const warning of entry.warnings ?? []) lines.push(paint('!', `      warning: type change, ${warning}`));
  return lines;
}

/** Record values, field names and the service's reasons are shown, never obeyed, by the terminal. */
function painter(color: boolean): Paint {
  return (mark, text) => (color && COLOURS[mark] ? `\x1b[${COLOURS[mark]}m${terminalSafe(text)}\x1b[0m` : terminalSafe(text));
}

function planHeadline(plan: Pick<Plan, 'command' | 'env' | 'baseUrl' | 'createdAt'>): string {
  return terminalSafe(`Plan for \`${plan.command}\` on ${plan.env} (${plan.baseUrl}), read ${plan.createdAt}:`);
}

/** The readable plan, ending with its summary line; `color` adds ANSI colours by kind. */
export function renderPlanText(plan: Omit<Plan, 'digest'>, color: boolean): string {
  const paint = painter(color);
  const lines = [planHeadline(plan), ''];
  const shown = new Map<PlanAction, number>();
  for (const entry of plan.entries) {
    if (entry.action === 'unchanged') continue;
    const count = shown.get(entry.action) ?? 0;
    shown.set(entry.action, count + 1);
    // Only the entries shown are written out: a plan of a million entries shows 50 of each kind.
    if (count < SHOWN_PER_ACTION) lines.push(...linesOf(entry, paint));
  }
  for (const [action, count] of shown) {
    if (count > SHOWN_PER_ACTION)
      lines.push(
        `  … and ${grouped.format(count - SHOWN_PER_ACTION)} more ${action === 'refused' ? 'to be refused' : action === 'unreadable' ? 'unreadable' : `to ${action}`} (-o json or --plan-out for all)`,
      );
  }
  const typeChanges = plan.entries.reduce((sum, entry) => sum + (entry.warnings?.length ?? 0), 0);
  if (typeChanges > 0)
    lines.push(
      '',
      paint(
        '!',
        `Warning: ${grouped.format(typeChanges)} field ${typeChanges === 1 ? 'value changes' : 'values change'} type (a stored string sent as a number, …): see the warnings above.`,
      ),
    );
  if (lines.length > 2) lines.push('');
  lines.push(planSummary(plan));
  return `${lines.join('\n')}\n`;
}

/** Entries a confirmation shows before "… and N more". */
const PREVIEWED_ENTRIES = 10;

/**
 * What a confirmation shows above its question: where the plan was read, its
 * first changes (each with its fields old → new), how many more there are, the
 * counts, and the digest of what was reviewed.
 */
export function planPreview(plan: Plan, color: boolean, digest: string | undefined): string {
  const lines = [planHeadline(plan)];
  let entries = 0;
  const paint = painter(color);
  for (const entry of plan.entries) {
    if (entry.action === 'unchanged') continue;
    entries += 1;
    if (entries <= PREVIEWED_ENTRIES) lines.push(...linesOf(entry, paint));
  }
  if (entries > PREVIEWED_ENTRIES) lines.push(`  … and ${grouped.format(entries - PREVIEWED_ENTRIES)} more (the plan file holds them all)`);
  lines.push(`${planSummary(plan)}${digest ? ` Digest ${digest}.` : ''}`);
  return `${lines.join('\n')}\n`;
}
