// The values of a Proton Pass item that its typed fields do not take (issue 32): custom fields
// ({ fieldName, type, data }) wherever Proton nests them (an item's extraFields, an identity's
// extraPersonalDetails, extraAddressDetails, extraContactDetails and extraWorkDetails, the
// sections of identities, custom items, Wi-Fi and SSH keys), and the content strings left over.
// A custom field's value sits in `data.content` (text, hidden), `data.totpUri` (totp) or
// `data.timestamp` (timestamp); none is dropped.
import type { CustomField } from '../model.ts';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A date from Proton's timestamp: seconds since the epoch, or { seconds }, or text. */
function timestampText(t: unknown): string {
  const seconds = isObject(t) ? t.seconds : t;
  const n = typeof seconds === 'string' && /^\d+$/.test(seconds) ? Number(seconds) : seconds;
  if (typeof n === 'number' && Number.isFinite(n)) {
    return new Date(n * 1000).toISOString().slice(0, 10);
  }
  return typeof t === 'string' ? t : '';
}

/** The value of one Proton custom field, whatever its type. */
export function protonFieldValue(data: unknown): string {
  if (!isObject(data)) return '';
  for (const key of ['content', 'totpUri']) {
    const v = data[key];
    if (typeof v === 'string' && v !== '') return v;
  }
  return data.timestamp == null ? '' : timestampText(data.timestamp);
}

export interface ProtonField {
  name: string;
  value: string;
  type: string;
}

/** The custom fields of a list of Proton fields, `prefix` naming their section. */
export function protonFields(list: unknown, prefix = ''): ProtonField[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).map((f) => ({
    name: `${prefix}${typeof f.fieldName === 'string' ? f.fieldName : ''}`,
    value: protonFieldValue(f.data),
    type: typeof f.type === 'string' ? f.type : 'text',
  }));
}

/** The fields of Proton's sections: [{ sectionName, sectionFields }]. */
const sectionFields = (list: unknown): ProtonField[] =>
  Array.isArray(list)
    ? list
        .filter(isObject)
        .flatMap((s) =>
          protonFields(
            s.sectionFields,
            typeof s.sectionName === 'string' && s.sectionName !== '' ? `${s.sectionName}: ` : '',
          ),
        )
    : [];

/**
 * What of `content` no typed field took (`taken`), as custom fields: strings, numbers other than
 * 0 (Proton's "unspecified" for its enums), booleans that are true, and nested field lists.
 */
export function restFields(
  content: Record<string, unknown>,
  taken: readonly string[],
  hidden: readonly string[] = [],
): CustomField[] {
  const out: CustomField[] = [];
  for (const [key, v] of Object.entries(content)) {
    if (taken.includes(key)) continue;
    if (key === 'sections' || key === 'extraSections') {
      for (const f of sectionFields(v)) out.push(asCustom(f));
    } else if (Array.isArray(v)) {
      for (const f of protonFields(v)) out.push(asCustom(f));
    } else if ((typeof v === 'string' && v !== '') || (typeof v === 'number' && v !== 0)) {
      out.push({ name: key, value: String(v), hidden: hidden.includes(key) });
    } else if (v === true) {
      out.push({ name: key, value: 'true', hidden: false });
    }
  }
  return out;
}

export const asCustom = (f: ProtonField): CustomField => ({
  name: f.name,
  value: f.value,
  hidden: f.type === 'hidden' || f.type === 'totp',
});
