// Entry of the sandbox proxy page (sandbox-proxy.html loads it as ./sandbox-proxy.js).
import { runSandboxProxy } from './sandbox-proxy.js';

if (typeof window !== 'undefined') runSandboxProxy(window);
