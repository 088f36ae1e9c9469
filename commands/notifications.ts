/** `pla notifications` (alias `notif`): per-user notifications and, under `email`, e-mails (spec 4.4). */
import { runs } from '../src/cli/invocation.js';
import { addFilterOptions, addPageOptions, addSafetyOptions, examples } from './options.js';
import { addDeleteVerb, addIdVerb, addWriteVerb, idAction } from './record-verbs.js';
import { type Tree, tree as newTree } from './tree.js';

/** The notification handlers, loaded when a verb of theirs runs. */
const handlers = () => import('../src/cli/handlers/notifications.js');

function createEmailCommand(): Tree {
  const email = newTree('email').description('e-mail notifications');
  addWriteVerb(
    email,
    'send',
    'email-notifications.create',
    'create and send e-mail notifications (one call per record)',
    `pla notifications email send --data '{"forUserEmail": "ana@example.com", "templateName": "lease-expiry"}'`,
  );
  addDeleteVerb(email, 'email-notifications.delete', 'pla notifications email delete 31 32 --yes');
  return email;
}

/** Declares the `pla notifications` tree (with `email`); handlers load only when a verb runs. */
export function createNotificationsCommand() {
  const tree = newTree('notifications').alias('notif').description('notifications of users, e-mail notifications');

  // The spec's notification lists take page and size only: no --sort to offer.
  const list = addFilterOptions(
    addPageOptions(tree.command('list <user>').description("list a user's notifications, newest first").option('--mobile', 'the mobile listing')),
    'notifications.list',
  );
  examples(list, 'pla notifications list ana --size 20', 'pla notif list ana --mobile --all -o ndjson', 'pla notif list ana --unread');
  runs(list, async () => (await handlers()).list);

  const count = tree
    .command('count <user>')
    .description("count a user's notifications")
    .option('--unread', 'only unread ones')
    .option('--by-type', 'unread ones per type')
    .option('--mobile', 'unread ones of the mobile listing');
  examples(count, 'pla notifications count ana --unread', 'pla notifications count ana --by-type -o json');
  runs(count, async () => (await handlers()).count);

  addIdVerb(tree, 'read', 'mark notifications read (one call per id)', idAction('notifications.markRead', 'Mark read'), 'pla notifications read 101 102');
  addWriteVerb(
    tree,
    'create',
    'notifications.create',
    'create notifications (one call per record)',
    `pla notifications create --data '{"forUserId": "ana", "title": "Lease renewed"}'`,
  );
  addDeleteVerb(tree, 'notifications.delete', 'pla notifications delete 101 102 --yes');

  const clear = addSafetyOptions(tree.command('clear <user>').description('delete every notification of a user'));
  examples(clear, 'pla notifications clear ana --dry-run');
  runs(clear, async () => (await handlers()).clear);

  addWriteVerb(
    tree,
    'work-order',
    'notifications.workOrder',
    'notify that a work order was created (values of the body are objects)',
    `pla notifications work-order --data '{"workOrder": {"id": "WO-17", "property": "Main St 4"}}'`,
  );
  tree.addCommand(createEmailCommand());
  return tree;
}
