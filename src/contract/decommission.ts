/**
 * When a determination may be decommissioned: the one rule the local server
 * enforces and plans and dry runs predict. A record already decommissioned is
 * not decommissioned again (the service answers 409), whether by `decommission`
 * or by `remove` of a record in use, which decommissions instead of deleting;
 * a decommission by date picks only the others.
 */

/** The status of a decommissioned determination (the other is ACTIVE). */
export const DECOMMISSIONED = 'DECOMMISSIONED';

/** Whether `record` is already decommissioned (its status read in any case, as another service may write it). */
export function isDecommissioned(record: Readonly<Record<string, unknown>>): boolean {
  return typeof record.status === 'string' && record.status.toUpperCase() === DECOMMISSIONED;
}

/** What `remove` does to `record`: decommissions it when in use, else deletes it. */
export function removeKeeps(record: Readonly<Record<string, unknown>>): boolean {
  return record.inUse === true;
}
