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
  /** `--status A,B`: any of these values (upper-cased when `upper`); absent = a switch matching `equals`. */
  values?: { placeholder: string; upper?: boolean };
  /** The value a switch matches. */
  equals?: unknown;
}

export interface ListFilters {
  filters: readonly ListFilter[];
  /** The service's search that takes these filters as its body (field → any of), if there is one. */
  search?: OperationId;
}

const status = (values: string): ListFilter => ({
  flag: 'status',
  field: 'status',
  description: `only records with one of these statuses, e.g. ${values}`,
  values: { placeholder: 'A,B', upper: true },
});

/** The filters of each list operation. */
export const LIST_FILTERS: Partial<Record<OperationId, ListFilters>> = {
  'tasks.list': { filters: [status('PENDING,RUNNING')], search: 'tasks.search' },
  'determinations.list': {
    filters: [
      status('ACTIVE'),
      { flag: 'company', field: 'companyCode', description: 'only records of these company codes, e.g. 1000,2000', values: { placeholder: 'codes' } },
    ],
  },
  'notifications.list': {
    filters: [
      { flag: 'read', field: 'read', description: 'only notifications already read', equals: true },
      { flag: 'unread', field: 'read', description: 'only unread notifications', equals: false },
    ],
  },
};
