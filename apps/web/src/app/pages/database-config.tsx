import { DatabaseConfigPage } from '../../features/database/components/config-page';
import { DictionaryManager } from '../../features/dictionary/components/dictionary-manager';

/** `/manage/database/config` (and `/sub`): the database feature's configuration page with the dictionary feature's tab. */
export function DatabaseConfigRoute() {
  return <DatabaseConfigPage dictionaryTab={<DictionaryManager />} />;
}
