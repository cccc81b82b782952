// fflate's inflate alone, for inflate-embedded.ts to import() lazily: importing this file
// rather than fflate itself lets esbuild keep only unzlibSync of the package.
export { unzlibSync } from 'fflate/browser';
