// A CommonJS NestJS 11 app (TypeScript 5.9, `module: nodenext`, openai 7) running the shared shop app
// (../nest-shop-app.ts): a guard, a global interceptor and an exception filter around tool calls, and request-scoped
// tool providers resolved per run, from the packed package.
import { checkShopApp } from './nest-shop-app.js';

checkShopApp().then(
  () =>
    console.log(
      'consumer nest11-cjs: compiled without a cast; a guard refused a guest and let an admin through, an ' +
        'interceptor timed every call, a filter rewrote a domain error, request-scoped tools served their own run',
    ),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
