/** Policy text the page starts with: esbuild's text loader inlines the file. */
declare module '*.yaml' {
  const text: string;
  export default text;
}
