/** Every area's handlers; the API refuses to start unless they cover exactly `allCalls`. */
import type { Handler } from '../http/handle';
import { authHandlers } from './auth';
import { roleHandlers } from './roles';
import { userHandlers } from './users';

export const allHandlers: readonly Handler[] = [...authHandlers, ...userHandlers, ...roleHandlers];
