/** Version of this copy of ahp-elements (kept equal to package.json; a browser test checks it). */
export const VERSION = '0.1.0';
