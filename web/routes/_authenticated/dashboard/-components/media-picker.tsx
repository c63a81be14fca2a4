import { useState } from 'react';
import type { ProductMediaFile } from '../../../../../domain/files/schemas';
import { IMAGE_ACCEPT, productImageProblem, uploadFile, UPLOAD_WORDS } from '../../../../catalog/upload';
import { FormField } from '../../../../forms/form-field';
import { formErrorsInWords } from '../../../../forms/messages';

export function MediaPicker(props: {
  organizationId: string;
  medias: ProductMediaFile[];
  onChange: (medias: ProductMediaFile[]) => void;
}) {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function upload(file: File) {
    const problem = await productImageProblem(file);
    setError(problem);
    if (problem) return;
    setProgress(0);
    try {
      const uploaded = await uploadFile(
        file,
        { organizationId: props.organizationId, service: 'product_media' },
        setProgress,
      );
      if (uploaded.service === 'product_media') props.onChange([...props.medias, uploaded]);
    } catch (failure) {
      const { fields, form } = formErrorsInWords(failure, UPLOAD_WORDS);
      setError(Object.values(fields)[0] ?? form);
    } finally {
      setProgress(null);
    }
  }
  return (
    <fieldset>
      <legend>Images</legend>
      <ul className="media-list">
        {props.medias.map((media) => (
          <li key={media.id}>
            <img src={media.public_url} alt={media.name} className="thumbnail" />
            <button
              type="button"
              className="secondary"
              onClick={() => props.onChange(props.medias.filter((other) => other.id !== media.id))}
            >
              {`Remove ${media.name}`}
            </button>
          </li>
        ))}
      </ul>
      <FormField
        label="Add an image"
        field="medias"
        error={error}
        hint="PNG, JPEG, GIF, WebP or AVIF, up to 10 MB."
        markOptional={false}
        className="field"
      >
        {(control) => (
          <input
            {...control}
            type="file"
            accept={IMAGE_ACCEPT}
            disabled={progress !== null}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void upload(file);
            }}
          />
        )}
      </FormField>
      {progress === null ? null : (
        <p>
          <progress aria-label="Upload progress" max={1} value={progress} /> {Math.round(progress * 100)}%
        </p>
      )}
    </fieldset>
  );
}
