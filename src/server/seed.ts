/**
 * Demo data for a fresh data folder (and `/_admin/reset`): determinations (one in
 * use, one decommissioned), settings, transfer tasks in every status,
 * notifications for `alice` and `bob` (some mobile, some read), and topics with
 * captions in English and German. Staged on the caller's transaction.
 */
import type { CollectionName, Transaction } from '../store/types.js';

/** ISO time `minutes` before `now`. */
function ago(now: number, minutes: number): string {
  return new Date(now - minutes * 60_000).toISOString();
}

/** Stages the demo records on `tx` under new ids, times relative to `now`. */
export async function seed(tx: Transaction, now = Date.now()): Promise<void> {
  const records: Array<[CollectionName, Record<string, unknown>]> = [];
  const add = (collection: CollectionName, fields: Record<string, unknown>): void => {
    records.push([collection, fields]);
  };
  const stamps = (minutes: number) => ({ createdAt: ago(now, minutes), updatedAt: ago(now, minutes) });
  const dtoStamps = (minutes: number) => ({ createdDate: ago(now, minutes), lastModifiedDate: ago(now, minutes) });

  const determinations = [
    { code: 'ATD-ACQ', name: 'Acquisition', transactionType: 'ACQUISITION', companyCode: '1000', inUse: true },
    { code: 'ATD-RET', name: 'Retirement', transactionType: 'RETIREMENT', companyCode: '1000', inUse: false },
    { code: 'ATD-TRF', name: 'Inter-company transfer', transactionType: 'TRANSFER', companyCode: '2000', inUse: true },
    { code: 'ATD-REV', name: 'Revaluation', transactionType: 'REVALUATION', companyCode: '2000', inUse: false },
    { code: 'ATD-IMP', name: 'Impairment', transactionType: 'IMPAIRMENT', companyCode: '3000', inUse: false },
  ];
  determinations.forEach((d, i) => add('determinations', { ...d, status: 'ACTIVE', ...stamps(60 * 24 * (30 - i)) }));
  add('determinations', {
    code: 'ATD-OLD',
    name: 'Legacy write-off',
    transactionType: 'WRITE_OFF',
    companyCode: '1000',
    inUse: false,
    status: 'DECOMMISSIONED',
    decommissionedAt: ago(now, 60 * 24 * 10),
    ...stamps(60 * 24 * 10),
  });

  const settings = [
    { key: 'fiscalYearStartMonth', value: '1', companyCode: '1000' },
    { key: 'reportingCurrency', value: 'EUR', companyCode: '1000' },
    { key: 'leaseDiscountRate', value: '0.035', companyCode: '2000' },
    { key: 'depreciationMethod', value: 'STRAIGHT_LINE', companyCode: '3000' },
  ];
  settings.forEach((s, i) => add('settings', { ...s, ...stamps(60 * 24 * (20 - i)) }));

  const tasks: Array<[string, Record<string, unknown>]> = [
    ['PENDING', {}],
    ['PENDING', {}],
    ['RUNNING', { startedAt: ago(now, 5) }],
    ['COMPLETED', { startedAt: ago(now, 300), finishedAt: ago(now, 240) }],
    ['FAILED', { startedAt: ago(now, 200), finishedAt: ago(now, 190), error: 'target company 9000 is closed' }],
    ['CANCELLED', { cancelledAt: ago(now, 100) }],
  ];
  tasks.forEach(([status, extra], i) =>
    add('tasks', {
      sourceCompanyCode: '1000',
      targetCompanyCode: i % 2 ? '2000' : '3000',
      contractNumber: `LC-${1001 + i}`,
      assetCount: 10 * (i + 1),
      status,
      ...extra,
      ...stamps(600 - i * 60),
    }),
  );

  const notifications = [
    {
      forUserId: 'alice',
      byUserId: 'bob',
      type: 'LEASE',
      service: 'web',
      title: 'Lease LC-1001 approved',
      description: 'Bob approved lease contract LC-1001.',
      clickEvent: 'OPEN_LEASE',
      viewed: false,
    },
    {
      forUserId: 'alice',
      byUserId: 'system',
      type: 'TASK',
      service: 'mobile',
      title: 'Transfer finished',
      description: 'Transfer task 4 completed.',
      clickEvent: 'OPEN_TASK',
      viewed: false,
    },
    {
      forUserId: 'alice',
      byUserId: 'system',
      type: 'TASK',
      service: 'mobile',
      title: 'Transfer failed',
      description: 'Transfer task 5 failed.',
      clickEvent: 'OPEN_TASK',
      viewed: true,
    },
    {
      forUserId: 'alice',
      byUserId: 'carol',
      type: 'COMMENT',
      service: 'web',
      title: 'New comment',
      description: 'Carol commented on LC-1002.',
      clickEvent: 'OPEN_LEASE',
      viewed: true,
    },
    {
      forUserId: 'bob',
      byUserId: 'alice',
      type: 'LEASE',
      service: 'mobile',
      title: 'Lease LC-1003 needs review',
      description: 'Alice asked you to review LC-1003.',
      clickEvent: 'OPEN_LEASE',
      viewed: false,
    },
    {
      forUserId: 'bob',
      byUserId: 'system',
      type: 'REMINDER',
      service: 'web',
      title: 'Period close',
      description: 'The period closes on Friday.',
      clickEvent: 'OPEN_CALENDAR',
      viewed: false,
    },
  ];
  notifications.forEach((n, i) => add('notifications', { ...n, ...dtoStamps(500 - i * 30) }));

  const topics: Array<[string, string, string, string]> = [
    ['LEASE_APPROVED', 'lease', 'Lease approved', 'Leasingvertrag genehmigt'],
    ['LEASE_EXPIRING', 'lease', 'Lease expiring soon', 'Leasingvertrag läuft bald ab'],
    ['TRANSFER_DONE', 'portfolio', 'Transfer completed', 'Übertragung abgeschlossen'],
    ['PERIOD_CLOSE', 'portfolio', 'Period close', 'Periodenabschluss'],
  ];
  let captionId = 0;
  topics.forEach(([code, service, en, de]) => {
    const when = dtoStamps(60 * 24 * 60);
    const captionValues = [
      { ...when, id: ++captionId, langCode: 'en', value: en },
      { ...when, id: ++captionId, langCode: 'de', value: de },
    ];
    add('topics', { ...when, code, service, captionValues });
  });
  for (const collection of new Set(records.map(([name]) => name))) {
    const mine = records.filter(([name]) => name === collection);
    const ids = await tx.allocateIds(collection, mine.length);
    mine.forEach(([, fields], i) => tx.put(collection, { id: ids[i] as number, ...fields }));
  }
}
