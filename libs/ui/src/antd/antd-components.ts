/**
 * The only antd components the remotes may use. Remotes import them from '@studio/ui' (a shared
 * singleton served by the shell), so antd is loaded once and only these parts of it ship.
 */
export {
  Alert,
  App,
  Avatar,
  Badge,
  Button,
  Card,
  Checkbox,
  Collapse,
  Descriptions,
  ConfigProvider,
  DatePicker,
  Divider,
  Drawer,
  Dropdown,
  Empty,
  Flex,
  Form,
  Input,
  Layout,
  Menu,
  Modal,
  Radio,
  Result,
  Select,
  Skeleton,
  Space,
  Spin,
  Switch,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
export type { MenuProps, SelectProps, TabsProps, CollapseProps } from 'antd';
export {
  CopyOutlined,
  EditOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  MoreOutlined,
} from '@ant-design/icons';
export { default as dayjs } from 'dayjs';
export type { Dayjs } from 'dayjs';
