/**
 * Every action `commands/` declares, implemented: the key's handler module is
 * imported only when the command runs. The type makes a declared key without a
 * handler, or a handler given the wrong spec, a compile error.
 */
import type { ActionKey, ActionSpecs } from '../../../commands/actions.js';
import type { Handler } from '../invocation.js';

const server = () => import('./server.js');
const config = () => import('./config.js');
const notifications = () => import('./notifications.js');
const records = () => import('./records.js');
const tasks = () => import('./tasks.js');
const runs = () => import('./runs.js');

export const HANDLERS: { readonly [K in ActionKey]: Handler<ActionSpecs[K]> } = {
  'api.call': async (inv) => (await import('./api.js')).call(inv),
  'apply.run': async (inv) => (await import('./apply.js')).apply(inv),
  'config.setKey': async (inv) => (await config()).setKey(inv),
  'config.setUrl': async (inv) => (await config()).setUrl(inv),
  'config.use': async (inv) => (await config()).use(inv),
  'config.show': async (inv) => (await config()).show(inv),
  'config.path': async (inv) => (await config()).path(inv),
  'config.setProxy': async (inv) => (await config()).setProxy(inv),
  'config.setCa': async (inv) => (await config()).setCa(inv),
  'config.setStore': async (inv) => (await config()).setStore(inv),
  'config.detect': async (inv) => (await import('./config-wire.js')).detect(inv),
  'config.setWire': async (inv) => (await import('./config-wire.js')).setWire(inv),
  'config.remove': async (inv) => (await config()).remove(inv),
  'config.rename': async (inv) => (await config()).rename(inv),
  'config.export': async (inv) => (await config()).exportConfig(inv),
  'config.import': async (inv) => (await config()).importConfig(inv),
  'completion.print': async (inv) => (await import('./completion.js')).print(inv),
  'doctor.run': async (inv) => (await import('./doctor.js')).doctor(inv),
  'config.protect': async (inv) => (await config()).protect(inv, true),
  'config.unprotect': async (inv) => (await config()).protect(inv, false),
  'determinations.decommission': async (inv, spec) =>
    inv.opts.modifiedBefore || inv.opts.beforeNow ? (await import('./decommission.js')).decommissionByDate(inv) : (await import('./id-actions.js')).runIdAction(inv, spec),
  'ids.run': async (inv, spec) => (await import('./id-actions.js')).runIdAction(inv, spec),
  'images.upload': async (inv) => (await import('./images.js')).upload(inv),
  'notifications.list': async (inv) => (await notifications()).list(inv),
  'notifications.count': async (inv) => (await notifications()).count(inv),
  'notifications.clear': async (inv) => (await notifications()).clear(inv),
  'openapi.print': async (inv) => (await import('./openapi.js')).printOpenApi(inv),
  'records.get': async (inv, spec) => (await import('./get.js')).get(inv, spec.operationId),
  'records.list': async (inv, spec) => (await records()).list(inv, spec.operationId),
  'records.show': async (inv, spec) => (await records()).show(inv, spec.operationId),
  'records.write': async (inv, spec) => (await records()).write(inv, spec),
  'runs.list': async (inv) => (await runs()).list(inv),
  'runs.show': async (inv) => (await runs()).show(inv),
  'runs.prune': async (inv) => (await runs()).prune(inv),
  'runs.undo': async (inv) => (await runs()).undo(inv),
  'server.start': async (inv) => (await server()).start(inv),
  'server.migrate': async (inv) => (await server()).migrate(inv),
  'server.keys.create': async (inv) => (await server()).createKey(inv),
  'server.keys.list': async (inv) => (await server()).listKeys(inv),
  'server.keys.revoke': async (inv) => (await server()).revokeKey(inv),
  'server.health': async (inv) => (await server()).health(inv),
  'server.log': async (inv) => (await server()).requestLog(inv),
  'server.reset': async (inv) => (await server()).reset(inv),
  'tasks.search': async (inv) => (await tasks()).search(inv),
  'tasks.watch': async (inv) => (await tasks()).watch(inv),
  'topics.list': async (inv) => (await import('./topics.js')).list(inv),
};
