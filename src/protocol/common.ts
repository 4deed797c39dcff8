/** Value types shared by every AHP channel. */

export type URI = string;

/** `StringOrMarkdown`: plain text, or markdown to be rendered safely. */
export type StringOrMarkdown = string | { markdown: string };

export interface Icon {
  /** http(s) or data: URI. Render as `<img>`, never as markup. */
  src: URI;
  contentType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface ErrorInfo {
  errorType: string;
  message: string;
  stack?: string;
  _meta?: Record<string, unknown>;
}

export interface TextPosition { line: number; character: number }
export interface TextRange { start: TextPosition; end: TextPosition }

export interface ContentRef {
  uri: URI;
  sizeHint?: number;
  contentType?: string;
  nonce?: string;
}

export interface UsageInfo {
  inputTokens?: number;
  outputTokens?: number;
  model?: string;
  cacheReadTokens?: number;
  _meta?: Record<string, unknown>;
}

export interface FileEdit {
  before?: { uri: URI; content: ContentRef };
  after?: { uri: URI; content: ContentRef };
  diff?: { added?: number; removed?: number };
}

export interface FileEditCollection { items: FileEdit[] }

export type JsonPrimitive = string | number | boolean | null;

/** RFC 9728 protected resource metadata (snake_case on the wire). */
export interface ProtectedResourceMetadata {
  resource: string;
  resource_name?: string;
  authorization_servers?: string[];
  jwks_uri?: string;
  scopes_supported?: string[];
  bearer_methods_supported?: string[];
  resource_signing_alg_values_supported?: string[];
  resource_documentation?: string;
  resource_policy_uri?: string;
  resource_tos_uri?: string;
  /** AHP extension; absent means true. */
  required?: boolean;
}

/** Open string enum: the known values plus anything a newer peer sends. */
export type Open<T extends string> = T | (string & {});
