import { buildStyleVariables } from '../../src/apps/host-context.js';
import type { McpUiDisplayMode, McpUiHostContext } from '../../src/apps/types.js';
import { VERSION } from '../shared/version.js';

const DISPLAY_MODES: McpUiDisplayMode[] = ['inline', 'fullscreen', 'pip'];

/** The theme part of the host context: the page's colour scheme and the style variables. */
export function themeContext(dark: boolean): Pick<McpUiHostContext, 'theme' | 'styles'> {
  return { theme: dark ? 'dark' : 'light', styles: { variables: buildStyleVariables() } };
}

/** The host context a View starts with, from the browser and the tool call it shows. */
export function initialHostContext(o: {
  dark: boolean;
  displayMode: McpUiDisplayMode;
  containerDimensions: McpUiHostContext['containerDimensions'];
  toolName: string | undefined;
  toolCallId: string | null | undefined;
}): McpUiHostContext {
  return {
    ...themeContext(o.dark),
    displayMode: o.displayMode,
    availableDisplayModes: [...DISPLAY_MODES],
    containerDimensions: o.containerDimensions,
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: `ahp-elements/${VERSION}`,
    platform: 'web',
    deviceCapabilities: { touch: matchMedia('(pointer: coarse)').matches, hover: matchMedia('(hover: hover)').matches },
    ...(o.toolName && { toolInfo: { ...(o.toolCallId && { id: o.toolCallId }), tool: { name: o.toolName, inputSchema: { type: 'object' } } } }),
  };
}
