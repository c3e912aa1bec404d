import next from "eslint-config-next";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  ...next,
  ...nextTypescript,
  { ignores: [".next/**", "generated/**", "node_modules/**", "next-env.d.ts", "data/**"] },
];

export default config;
