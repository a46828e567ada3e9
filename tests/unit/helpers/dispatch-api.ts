// The renderer's API for its state classes under test: every call goes through the real
// dispatch of the main side on a real project, as the IPC and HTTP transports do.
import type { MekongApi } from '../../../src/shared/api.ts';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { dispatch } from '../../../src/main/api/dispatch.ts';

export function dispatchApi(ctx: AppContext): MekongApi {
  return {
    async invoke(channel, input) {
      const r = await dispatch(ctx, channel, input);
      if (!r.ok) throw new Error(r.error.error);
      return r.value as never;
    },
    onEvent: () => () => {},
  };
}
