import { createContext, useContext } from 'react';

/** Whether the address matched only the route table's catch-all (`*`): an unknown path. */
export const FallbackRouteContext = createContext(false);

export function useOnFallbackRoute(): boolean {
  return useContext(FallbackRouteContext);
}
