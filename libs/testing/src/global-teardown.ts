import type { RunningFakes } from './fakes';
import type { LocalStack } from './local-stack';

export default async function globalTeardown(): Promise<void> {
  const state = globalThis as { __cmsgStack?: LocalStack; __cmsgFakes?: RunningFakes };
  const stack = state.__cmsgStack;
  if (!stack) {
    await state.__cmsgFakes?.stop();
    return;
  }
  await stack.stop();
  // After the apps: nothing calls the fakes any more.
  await state.__cmsgFakes?.stop();
  // Each run's database is left in place (every run has its own, so nothing leaks into the next
  // one): a drop takes FerretDB's global catalog lock and can stall every other client behind a
  // straggling cursor; `bash tools/infra/infra.sh down` plus removing its run/ directory resets all.
}
