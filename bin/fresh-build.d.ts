// The type of bin/fresh-build.js for the TypeScript that imports it (the benches).
/** out/main/cli.js when it exists and no source file is newer (MEKONG_FROM_SOURCE=1: never), else null. */
export function freshBuild(): string | null;
