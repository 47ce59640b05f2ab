import { chainLabel } from '../../shared/chains';

/** "C-Chain -> Dispatch (Fuji)": the route of a message as metric and alert labels name it. */
export const routeLabel = (sourceChain: string, destinationChain: string): string => `${chainLabel(sourceChain)} -> ${chainLabel(destinationChain)}`;
