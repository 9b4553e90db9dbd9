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
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
export type { MenuProps, SelectProps, TabsProps, CollapseProps, TableProps } from 'antd';
export {
  CopyOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  MoreOutlined,
  PlusOutlined,
} from '@ant-design/icons';
export { default as dayjs } from 'dayjs';
export type { Dayjs } from 'dayjs';
