import { Flex, Switch } from '../antd/antd-components';

interface LabeledSwitchProps {
  /** Shown beside the switch and read as its name. */
  label: string;
  checked: boolean | undefined;
  onChange: (on: boolean) => void;
  id?: string;
  disabled?: boolean;
  loading?: boolean;
}

/**
 * An on/off switch with its label beside it ("Sync with Eventbrite"). The label is the switch's
 * own <label>: clicking the words toggles it too (issue 25: they did nothing on Locations).
 */
export function LabeledSwitch({ label, checked, onChange, id, disabled, loading }: LabeledSwitchProps) {
  return (
    <Flex gap={8} align="center" component="label" style={{ cursor: disabled || loading ? 'not-allowed' : 'pointer', width: 'fit-content' }}>
      <Switch
        id={id}
        checked={checked}
        onChange={(on) => onChange(on)}
        disabled={disabled}
        loading={loading}
        aria-label={label}
      />
      <span>{label}</span>
    </Flex>
  );
}
