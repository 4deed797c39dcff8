import type { ClientRegistration, RegistrationStore, StoredToken, TokenStore } from './types.js';

/** Tokens in memory, gone with the page (the default). */
export const memoryTokenStore = (): TokenStore => {
  const m = new Map<string, StoredToken>();
  return { get: (k) => m.get(k), set: (k, v) => void m.set(k, v), delete: (k) => void m.delete(k) };
};

/** Client registrations in memory (the default). */
export const memoryRegistrationStore = (): RegistrationStore => {
  const m = new Map<string, ClientRegistration>();
  return { get: (k) => m.get(k), set: (k, v) => void m.set(k, v), delete: (k) => void m.delete(k) };
};
