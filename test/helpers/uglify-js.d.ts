// The part of uglify-js the minification test uses (the package ships no types).
declare module 'uglify-js' {
  export function minify(
    code: string,
    options?: { toplevel?: boolean; mangle?: boolean | { toplevel?: boolean } },
  ): { code: string; error?: Error };
}
