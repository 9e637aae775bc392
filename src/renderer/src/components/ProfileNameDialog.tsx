// Adding a merchant (a name; then the connect screen for the new, not yet connected profile) and
// renaming one: the same one-field dialog. The name follows shared/profile-name.ts, checked while
// typing and again by core.
import { Alert, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { PROFILE_NAME_MAX } from '../../../shared/profile-name';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { nameFieldProblem, nameProblemOfError } from '../lib/profile-name-form';
import { useAddProfile, useProfiles, useRenameProfile } from '../queries/profiles';
import { useProfileDialogStore } from '../state/profile-dialog-store';
import { useMerchantLabel } from './MerchantName';
import { ProblemAlert } from './ProblemAlert';

function NameForm({ renaming, onClose }: { renaming: string | null; onClose: () => void }) {
  const { t } = useI18n();
  const profiles = useProfiles();
  const list = profiles.data?.profiles ?? [];
  const current = renaming === null ? undefined : list.find((profile) => profile.id === renaming);
  const label = useMerchantLabel();
  const [name, setName] = useState(current === undefined ? '' : label(current));
  const [touched, setTouched] = useState(false);
  const add = useAddProfile();
  const rename = useRenameProfile();
  const setReturnTo = useProfileDialogStore((state) => state.setReturnTo);
  const mutation = renaming === null ? add : rename;
  const problem = nameFieldProblem(name, list, renaming) ?? nameProblemOfError(mutation.error);
  const otherFailure = mutation.error !== null && nameProblemOfError(mutation.error) === null ? mutation.error : null;

  const submit = (): void => {
    setTouched(true);
    if (nameFieldProblem(name, list, renaming) !== null) return;
    // Closed through the store once core answered: adding switches to the new merchant, whose connect
    // screen replaces the frame this dialog was opened in (a callback of mutate() would be dropped).
    const done = (): void => onClose();
    const failed = (): undefined => undefined;
    if (renaming === null) {
      const before = profiles.data?.activeId ?? null;
      setReturnTo(before);
      void add.mutateAsync(name).then(done, failed);
    } else void rename.mutateAsync({ profileId: renaming, name }).then(done, failed);
  };
  const shown = touched || mutation.error !== null ? problem : null;
  return (
    <Modal
      open
      title={renaming === null ? t('profiles.addTitle') : t('profiles.renameTitle')}
      okText={renaming === null ? t('profiles.addOk') : t('profiles.renameOk')}
      cancelText={t('profiles.cancel')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={mutation.isPending}
      okButtonProps={{ 'data-testid': 'profile-name-ok' }}
      destroyOnHidden
      data-testid="profile-name-dialog"
    >
      <Form layout="vertical" onFinish={submit}>
        {renaming === null ? <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('profiles.addHint')} /> : null}
        <Form.Item label={t('profiles.nameLabel')} validateStatus={shown === null ? '' : 'error'} help={shown === null ? t('profiles.nameHelp', { max: PROFILE_NAME_MAX }) : <span data-testid="profile-name-error">{t(`profiles.nameProblem.${shown}`, { max: PROFILE_NAME_MAX })}</span>}>
          <Input
            autoFocus
            data-testid="profile-name-input"
            value={name}
            maxLength={PROFILE_NAME_MAX * 2}
            placeholder={t('profiles.namePlaceholder')}
            onChange={(event) => {
              setName(event.target.value);
              mutation.reset();
            }}
            onPressEnter={submit}
          />
        </Form.Item>
      </Form>
      {otherFailure !== null ? <ProblemAlert explained={explainError(otherFailure)} /> : null}
    </Modal>
  );
}

export function ProfileNameDialog() {
  const dialog = useProfileDialogStore((state) => state.dialog);
  const open = useProfileDialogStore((state) => state.open);
  if (dialog === null || dialog.kind === 'remove') return null;
  return <NameForm key={dialog.kind === 'rename' ? dialog.profileId : 'add'} renaming={dialog.kind === 'rename' ? dialog.profileId : null} onClose={() => open(null)} />;
}
