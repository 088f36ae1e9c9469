/**
 * The filter flags of the lists, declared once: the commands add them as options,
 * the list handler applies them. Where the service can search (transfer tasks) a
 * filter becomes its search body; elsewhere the pages are read one after another
 * and only the matching records printed, as they stream. Plain data, so command
 * registration reads it without loading anything.
 */
import type { OperationId } from './operations.js';

/** The filter options as the list handlers read them (each list declares those of its table entry). */
export interface FilterOptions {
  status?: string[];
  company?: string[];
  read?: boolean;
  unread?: boolean;
}

export interface ListFilter {
  /** The flag, without `--`: `--status A,B` takes a list, a flag without `values` is a switch. */
  flag: keyof FilterOptions;
  /** The record field it matches. */
  field: string;
  /** Help text. */
  description: string;
  /**
   * `--status A,B`: any of these values (upper-cased when `upper`); absent = a switch matching `equals`.
   * `known`: the values pla knows the service to use; another one is still applied, with a note naming these.
   */
  values?: { placeholder: string; upper?: boolean; known?: readonly string[] };
  /** The value a switch matches. */
  equals?: unknown;
}

export interface ListFilters {
  filters: readonly ListFilter[];
  /** The service's search that takes these filters as its body (field → any of), if there is one. */
  search?: OperationId;
}

/** Said in the help of a filter pla applies itself: it reads pages until it has a page of matches. */
const SCANS = ' (pla filters the pages itself: it reads pages until it has --size matches, every page with --all)';

const status = (example: string, known: readonly string[], scanned: boolean): ListFilter => ({
  flag: 'status',
  field: 'status',
  description: `only records with one of these statuses, e.g. ${example}${scanned ? SCANS : ''}`,
  values: { placeholder: 'A,B', upper: true, known },
});

/** The task statuses pla knows (watch and plans use them too): PENDING → RUNNING → COMPLETED | FAILED, or CANCELLED. */
const TASK_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;

/** The filters of each list operation. */
export const LIST_FILTERS: Partial<Record<OperationId, ListFilters>> = {
  'tasks.list': { filters: [status('PENDING,RUNNING', TASK_STATUSES, false)], search: 'tasks.search' },
  'determinations.list': {
    filters: [
      status('ACTIVE', ['ACTIVE', 'DECOMMISSIONED'], true),
      { flag: 'company', field: 'companyCode', description: `only records of these company codes, e.g. 1000,2000${SCANS}`, values: { placeholder: 'codes' } },
    ],
  },
  'notifications.list': {
    filters: [
      { flag: 'read', field: 'read', description: `only notifications already read${SCANS}`, equals: true },
      { flag: 'unread', field: 'read', description: `only unread notifications${SCANS}`, equals: false },
    ],
  },
};
