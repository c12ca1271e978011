import './base.css';
import './forms.css';
