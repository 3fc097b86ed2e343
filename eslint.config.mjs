// ESLint for the whole tree (typescript-eslint's recommended rules). Formatting is Prettier's job
// (.prettierrc.json); `npm run lint` runs both checks and is part of `npm test`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'coverage/**',
      '.tidemark/**',
      'node_modules/**',
      'devstack/kafka/lib*/**',
      'src/console/api/generated.ts',
      'test/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // CommonJS entry points (the `npx tidemark` shim) are plain Node scripts.
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  {
    rules: {
      // tsc (strict, noUnusedLocals/Parameters) already reports these, with the same meaning.
      '@typescript-eslint/no-unused-vars': 'off',
      'no-undef': 'off',
      // Control characters in regular expressions are how we refuse them in input.
      'no-control-regex': 'off',
    },
  },
);
