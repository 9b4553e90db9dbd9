import { ENABLED_PRICE_TYPES, PRICE_TYPES, type PriceType } from '@studio/contracts';
import { Radio } from '@studio/ui';

const PRICE_TYPE_LABELS: Record<(typeof PRICE_TYPES)[number], string> = {
  standard: 'Standard',
  free: 'Free',
  volume: 'Volume',
  pwyw: 'Pay what you want',
};
const ENABLED: readonly string[] = ENABLED_PRICE_TYPES;

/** Price type of a course (spec 000 §3): standard or free; volume and pay-what-you-want are shown but disabled. */
export function PriceTypeRadio({
  value,
  onChange,
}: {
  value: PriceType;
  onChange: (next: PriceType) => void;
}) {
  return (
    <Radio.Group
      id="priceType"
      name="priceType"
      value={value}
      onChange={(e) => onChange(e.target.value as PriceType)}
      options={PRICE_TYPES.map((t) => ({
        value: t,
        label: PRICE_TYPE_LABELS[t],
        disabled: !ENABLED.includes(t),
      }))}
    />
  );
}
