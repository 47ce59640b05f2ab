import { chainLabel } from '../../shared/chains';
import { ARROW } from '../../shared/vocabulary';

/** "C-Chain → Dispatch (Fuji)": the route of a message as views, metric and alert labels name it. */
export const routeLabel = (sourceChain: string, destinationChain: string): string => `${chainLabel(sourceChain)} ${ARROW} ${chainLabel(destinationChain)}`;
