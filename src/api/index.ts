/** Every call of the wire contract. The server registers exactly these; the console calls only these. */
import type { CallContract } from './contract';
import { authCalls } from './auth';
import { userCalls } from './users';
import { roleCalls } from './roles';

export const allCalls: readonly CallContract[] = [...authCalls, ...userCalls, ...roleCalls];

export function findCall(path: string): CallContract | undefined {
  const wanted = path.toLowerCase();
  return allCalls.find((c) => c.path.toLowerCase() === wanted);
}
