// The German catalogue, all its files merged into one (i18n.ts loads it, as one chunk, only
// when German is shown).
const files = import.meta.glob<Record<string, string>>('./de/*.json', {
  eager: true,
  import: 'default',
});

const catalogue: Record<string, string> = {};
for (const file of Object.values(files)) Object.assign(catalogue, file);
export default catalogue;
