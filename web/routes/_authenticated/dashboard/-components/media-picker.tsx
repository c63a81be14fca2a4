import { useState } from 'react';
import type { ProductMediaFile } from '../../../../../domain/files/schemas';
import { uploadFile } from '../../../../catalog/upload';
import { ErrorNote } from '../../../../components';

export function MediaPicker(props: {
  organizationId: string;
  medias: ProductMediaFile[];
  onChange: (medias: ProductMediaFile[]) => void;
}) {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function upload(file: File) {
    setError(null);
    setProgress(0);
    try {
      const uploaded = await uploadFile(
        file,
        { organizationId: props.organizationId, service: 'product_media' },
        setProgress,
      );
      if (uploaded.service === 'product_media') props.onChange([...props.medias, uploaded]);
    } catch (failure) {
      setError((failure as Error).message);
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
      <label className="field">
        <span>Add an image</span>
        <input
          type="file"
          accept="image/*"
          disabled={progress !== null}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void upload(file);
          }}
        />
      </label>
      {progress === null ? null : (
        <p>
          <progress aria-label="Upload progress" max={1} value={progress} /> {Math.round(progress * 100)}%
        </p>
      )}
      <ErrorNote message={error} />
    </fieldset>
  );
}
